# Broadcast bias add (no single KernelBench level-1 counterpart).
# Params: R = rows, C = columns. Inputs: x [R, C], b [C]. Output: y [R, C].
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x, b):
        return x + b


R = 32768
C = 32768


def get_inputs():
    return [torch.randn(R, C), torch.randn(C)]


def get_init_inputs():
    return []
