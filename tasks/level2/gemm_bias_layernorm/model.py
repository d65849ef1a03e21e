import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """none (closest: level1/40_LayerNorm.py after a level-1 GEMM) with the weights as forward inputs.
    Param mapping: x -> x, W -> linear.weight (out_features x in_features), b -> linear.bias, gamma -> ln.weight, beta -> ln.bias."""

    def __init__(self, eps):
        super().__init__()
        self.eps = eps
    def forward(self, x, W, b, gamma, beta):
        z = F.linear(x, W, b)
        return F.layer_norm(z, (z.shape[-1],), gamma, beta, self.eps)


batch_size, in_features, out_features = 1024, 8192, 8192


def get_inputs():
    M, K, N = batch_size, in_features, out_features
    return [torch.randn(M, K), torch.randn(N, K) / (K / 128 + 8), torch.randn(N) * 0.5, torch.rand(N) + 0.5, torch.randn(N) * 0.5]


def get_init_inputs():
    return [1e-05]
