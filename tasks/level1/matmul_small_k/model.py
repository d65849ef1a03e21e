# KernelBench level1/7_Matmul_with_small_K_dimension_.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: M = 32768, N = 32768, K = 64: writing the 4 GiB C dominates (memory-bound).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix product C = A·B with a small K, f32, A is M x K, B is K x N"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 16384 * 2
N = 16384 * 2
K = 32 * 2


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(K, N)
    return [A, B]


def get_init_inputs():
    return []
