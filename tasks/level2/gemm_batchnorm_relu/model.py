import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """none (closest: level2/33_Gemm_Scale_BatchNorm.py without the scale, or level2/41_Gemm_BatchNorm_GELU_ReLU.py without the GELU; here BatchNorm1d in inference mode) with the weights as forward inputs (Crucible generates them like any input).
    Param mapping: x -> x, W -> linear.weight (out_features x in_features), b -> linear.bias, mean -> bn.running_mean, var -> bn.running_var, gamma -> bn.weight, beta -> bn.bias."""

    def __init__(self, eps):
        super().__init__()
        self.eps = eps
    def forward(self, x, W, b, mean, var, gamma, beta):
        z = F.linear(x, W, b)
        return torch.relu(F.batch_norm(z, mean, var, gamma, beta, training=False, eps=self.eps))


batch_size, in_features, out_features = 1024, 8192, 8192


def get_inputs():
    M, K, N = batch_size, in_features, out_features
    return [
        torch.randn(M, K, dtype=torch.float32),
        (torch.randn(N, K) / (K / 128 + 8)).to(torch.float32),
        (torch.randn(N) * 0.5).to(torch.float32),
    torch.randn(N) * 0.5,
    torch.rand(N) + 0.5,
    torch.rand(N) + 0.5,
    torch.randn(N) * 0.5,
    ]


def get_init_inputs():
    return [1e-05]
