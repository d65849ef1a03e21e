# KernelBench level1/40_LayerNorm.py in Crucible's terms.
# Params: R = batch_size, C = features * dim1 * dim2 (normalized_shape flattened; same memory).
# Inputs: x [R, C], gamma = ln.weight, beta = ln.bias (KernelBench leaves them at 1 and 0;
# Crucible draws them at random). Output: y [R, C].
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, eps: float = 1e-5):
        super(Model, self).__init__()
        self.eps = eps

    def forward(self, x, gamma, beta):
        return F.layer_norm(x, (x.shape[-1],), gamma, beta, self.eps)


batch_size = 16
features = 64
dim1 = 256
dim2 = 256


def get_inputs():
    C = features * dim1 * dim2
    return [torch.rand(batch_size, C), torch.rand(C) + 0.5, torch.rand(C) * 2 - 1]


def get_init_inputs():
    return []
