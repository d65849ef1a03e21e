# KernelBench level1/6_Matmul_with_large_K_dimension_.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: M = 256, N = 256, K = 524288: only 16 output tiles of 64 x 64, so K must be split.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix product C = A·B with a large K, f32, A is M x K, B is K x N"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 256
N = 256
K = 131072 * 4


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
