# KernelBench level1/2_Standard_matrix_multiplication_.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: M = 2048, K = 8192, N = 4096 (the task's M, K, N).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix product C = A·B, f32, A is M x K, B is K x N"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 1024 * 2
K = 4096 * 2
N = 2048 * 2


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
