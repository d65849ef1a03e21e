import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """none (closest: level1/40_LayerNorm.py followed by level1/26_GELU_.py); parameters (weights) are forward inputs."""

    def __init__(self):
        super().__init__()
        self.eps = 1e-5

    def forward(self, x, gamma, beta):
        return F.gelu(F.layer_norm(x, (x.shape[-1],), gamma, beta, self.eps))


batch_size, features = 16384, 8192


def get_inputs():
    R, C = batch_size, features
    return [torch.randn(R, C) * 2 + 1, torch.rand(C) + 0.5, torch.randn(C) * 0.5]


def get_init_inputs():
    return []
