# Elementwise f16 product (no single KernelBench level-1 counterpart).
# Params: N = elements. Inputs: a, b (float16). Output: y (float16).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, a, b):
        return a * b


N = 4096 * 393216


def get_inputs():
    return [torch.randn(N, dtype=torch.float16), (torch.rand(N) * 4 - 2).half()]


def get_init_inputs():
    return []
