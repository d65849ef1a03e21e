# KernelBench level1/1_Square_matrix_multiplication_.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: N = 4096; the task's N.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Square matrix product C = A·B, f32, all N x N"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


N = 4096


def get_inputs():
    A = torch.randn(N, N)
    B = torch.randn(N, N)
    return [A, B]


def get_init_inputs():
    return []
