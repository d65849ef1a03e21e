# KernelBench level1/23_Softmax.py in Crucible's terms.
# Params: B = batch_size, D = dim. Inputs: x (task input x). Output: y.
# Crucible draws x from normal(0, 3) instead of torch.rand so that rows are not flat.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.softmax(x, dim=1)


batch_size = 4096
dim = 393216


def get_inputs():
    return [torch.randn(batch_size, dim) * 3]


def get_init_inputs():
    return []
