# KernelBench level1/19_ReLU.py in Crucible's terms.
# Params: N = batch_size * dim (4096 * 393216), flattened. Inputs: x. Output: y.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.relu(x)


batch_size = 4096
dim = 393216


def get_inputs():
    return [torch.randn(batch_size * dim)]


def get_init_inputs():
    return []
