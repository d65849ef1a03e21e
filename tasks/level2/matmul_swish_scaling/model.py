import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """level2/59_Matmul_Swish_Scaling.py with the weights as forward inputs (Crucible generates them like any input).
    Param mapping: x -> x, W -> linear.weight (out_features x in_features), b -> linear.bias."""

    def __init__(self, scaling):
        super().__init__()
        self.scaling = scaling
    def forward(self, x, W, b):
        z = F.linear(x, W, b)
        return z * torch.sigmoid(z) * self.scaling


batch_size, in_features, out_features = 128, 32768, 32768


def get_inputs():
    M, K, N = batch_size, in_features, out_features
    return [
        torch.randn(M, K, dtype=torch.float32),
        (torch.randn(N, K) / (K / 128 + 8)).to(torch.float32),
        (torch.randn(N) * 0.5).to(torch.float32),
    ]


def get_init_inputs():
    return [2.0]
