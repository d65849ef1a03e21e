# KernelBench level1/5_Matrix_scalar_multiplication.py in KernelBench's form, at this
# task's benchmark shape. Param mapping: M, N as in the task; the task's scalar s is a
# one-element (0-dimensional) f32 tensor drawn per seed, where KernelBench passes the
# Python float 3.14 (A * s is the same operation either way).
import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A * s"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, s) -> torch.Tensor:
        return A * s


M = 16384 * 4
N = 4096 * 4


def get_inputs():
    return [torch.randn(M, N), torch.tensor(3.14)]


def get_init_inputs():
    return []
