# KernelBench level1/51_Argmax_over_a_dimension.py in Crucible's terms.
# Params: B = batch_size, D1 = dim1 (reduced), D2 = dim2; reduce dim = 1.
# Inputs: x. Output: y of B x D2 elements (the same memory as a keepdim B x 1 x D2).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super(Model, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.argmax(x, dim=self.dim)


batch_size = 128
dim1 = 4096
dim2 = 4095


def get_inputs():
    return [torch.randn(batch_size, dim1, dim2)]


def get_init_inputs():
    return [1]
