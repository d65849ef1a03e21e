import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """none (closest: level3/43_MinGPTCausalAttention.py, its masked softmax); parameters (weights) are forward inputs."""

    def __init__(self):
        super().__init__()
        self.eps = 1e-5

    def forward(self, x):
        i = torch.arange(x.shape[0], device=x.device) % x.shape[1]
        mask = torch.arange(x.shape[1], device=x.device)[None, :] > i[:, None]
        return torch.softmax((x * 0.125).masked_fill(mask, float("-inf")), dim=-1)


batch_size, features = 16384, 8192


def get_inputs():
    R, C = batch_size, features
    return [torch.randn(R, C) * 8]


def get_init_inputs():
    return []
