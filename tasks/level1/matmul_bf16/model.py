# KernelBench level1/1_Square_matrix_multiplication_.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: KernelBench's square problem (N = 4096 -> M = K = N = 4096) in bf16 (a mixed-precision variant).
import torch
import torch.nn as nn


class Model(nn.Module):
    """Matrix product C = A·B, bf16 inputs and output, f32 accumulation, A is M x K, B is K x N"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 4096
K = 4096
N = 4096


def get_inputs():
    A = torch.randn(M, K, dtype=torch.bfloat16)
    B = torch.randn(K, N, dtype=torch.bfloat16)
    return [A, B]


def get_init_inputs():
    return []
