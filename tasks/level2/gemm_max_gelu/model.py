import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """none (closest: level2/80_Gemm_Max_Subtract_GELU.py, whose subtraction of the mean over a size-1 dim makes its output identically 0) with the weights as forward inputs.
    Param mapping: x -> x, W -> linear.weight (out_features x in_features), b -> linear.bias."""

    def __init__(self):
        super().__init__()
        pass
    def forward(self, x, W, b):
        z = F.linear(x, W, b)
        return F.gelu(torch.max(z, dim=1, keepdim=True).values)


batch_size, in_features, out_features = 1024, 8192, 8192


def get_inputs():
    M, K, N = batch_size, in_features, out_features
    return [torch.randn(M, K), torch.randn(N, K) / (K / 128 + 8), torch.randn(N) * 0.5]


def get_init_inputs():
    return []
