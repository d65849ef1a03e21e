# KernelBench level1/33_BatchNorm.py in Crucible's terms, in inference mode.
# Params: N = batch_size, C = features, H = dim1, W = dim2.
# Inputs: x, running_mean = bn.running_mean, running_var = bn.running_var, gamma = bn.weight,
# beta = bn.bias. KernelBench's module runs in training mode (batch statistics); this task
# is the inference form, so the model calls batch_norm with training=False. Output: y.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, eps: float = 1e-5):
        super(Model, self).__init__()
        self.eps = eps

    def forward(self, x, running_mean, running_var, gamma, beta):
        return F.batch_norm(x, running_mean, running_var, gamma, beta, training=False, eps=self.eps)


batch_size = 64
features = 64
dim1 = 512
dim2 = 512


def get_inputs():
    C = features
    return [torch.rand(batch_size, C, dim1, dim2), torch.rand(C) * 0.6 + 0.2, torch.rand(C) * 0.15 + 0.05,
            torch.rand(C) + 0.5, torch.rand(C) * 2 - 1]


def get_init_inputs():
    return []
