# KernelBench level1/16_Matmul_with_transposed_A.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: M = 2048, K = 8192, N = 4096; A has shape (K, M) and forward is A.T @ B.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix product C = A^T·B, f32, A stored K x M, B is K x N"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A.T, B)


M = 1024 * 2
K = 4096 * 2
N = 2048 * 2


def get_inputs():
    A = torch.randn(K, M)
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
