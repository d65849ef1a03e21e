# KernelBench level1/89_cumsum.py in Crucible's terms.
# Params: B = batch_size, L = input_shape[0]; dim = 1. Inputs: x. Output: y.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, dim: int = 1):
        super(Model, self).__init__()
        self.dim = dim

    def forward(self, x):
        return torch.cumsum(x, dim=self.dim)


batch_size = 32768
input_shape = (32768,)
dim = 1


def get_inputs():
    return [torch.rand(batch_size, *input_shape)]


def get_init_inputs():
    return [dim]
