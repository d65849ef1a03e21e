# KernelBench level1/47_Sum_reduction_over_a_dimension.py with reduce_dim = 0 on a 2-D input.
# Params: M = rows (reduced), N = columns. Inputs: x [M, N]. Output: y [N].
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int = 0):
        super(Model, self).__init__()
        self.dim = dim

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.sum(x, dim=self.dim)


M = 65536
N = 4096


def get_inputs():
    return [torch.rand(M, N)]


def get_init_inputs():
    return [0]
