import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """level2/86_Matmul_Divide_GELU.py with the weights as forward inputs (Crucible generates them like any input).
    Param mapping: x -> x, W -> linear.weight (out_features x in_features), b -> linear.bias."""

    def __init__(self, divisor):
        super().__init__()
        self.divisor = divisor
    def forward(self, x, W, b):
        z = F.linear(x, W, b)
        return F.gelu(z / self.divisor)


batch_size, in_features, out_features = 1024, 8192, 8192


def get_inputs():
    M, K, N = batch_size, in_features, out_features
    return [
        torch.randn(M, K, dtype=torch.float32),
        (torch.randn(N, K) / (K / 128 + 8)).to(torch.float32),
        (torch.randn(N) * 0.5).to(torch.float32),
    ]


def get_init_inputs():
    return [10.0]
