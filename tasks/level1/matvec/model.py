# KernelBench level1/4_Matrix_vector_multiplication_.py in KernelBench's form, at this
# task's benchmark shape. Param mapping: M = 2048, K = 1048576; B is a K x 1 matrix and the
# output an M x 1 matrix, as in the task.
import torch
import torch.nn as nn


class Model(nn.Module):
    """C = A·B with B a column vector"""

    def __init__(self):
        super().__init__()

    def forward(self, A: torch.Tensor, B: torch.Tensor) -> torch.Tensor:
        return torch.matmul(A, B)


M = 256 * 8
K = 131072 * 8


def get_inputs():
    A = torch.randn(M, K)
    B = torch.randn(K, 1)
    return [A, B]


def get_init_inputs():
    return []
