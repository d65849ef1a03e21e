# KernelBench level1/3_Batched_matrix_multiplication.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: batch_size = 128 -> BATCH, m = 512 -> M, k = 1024 -> K, n = 2048 -> N.
import torch
import torch.nn as nn


class Model(nn.Module):
    """Batched matrix product C[b] = A[b]·B[b], f32, BATCH of (M x K)·(K x N)"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.bmm(A, B)


batch_size = 128
m = 128 * 4
k = 256 * 4
n = 512 * 4


def get_inputs():
    A = torch.randn(batch_size, m, k)
    B = torch.randn(batch_size, k, n)
    return [A, B]


def get_init_inputs():
    return []
