import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """none (closest: level1/36_RMSNorm_.py; the RMSNorm + SwiGLU gate of LLaMA-style MLPs); parameters (weights) are forward inputs."""

    def __init__(self):
        super().__init__()
        self.eps = 1e-5

    def forward(self, x, g, w):
        rms = torch.sqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps)
        return (x.float() / rms * w.float() * F.silu(g.float())).half()


batch_size, features = 16384, 8192


def get_inputs():
    R, C = batch_size, features
    return [torch.randn(R, C).half(), (torch.randn(R, C) * 2).half(), (torch.rand(C) + 0.5).half()]


def get_init_inputs():
    return []
