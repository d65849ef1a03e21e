# KernelBench level1/17_Matmul_with_transposed_B.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: M = 2048, K = 8192, N = 4096; B has shape (N, K) and forward is A @ B.T.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix product C = A·B^T, f32, A is M x K, B stored N x K"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B.T)


M = 1024 * 2
K = 4096 * 2
N = 2048 * 2


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(N, K)
    return [A, B]


def get_init_inputs():
    return []
