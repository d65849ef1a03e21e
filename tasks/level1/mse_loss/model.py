# KernelBench level1/94_MSELoss.py in Crucible's terms.
# Params: B = batch_size, D = input_shape[0]. Inputs: predictions, targets. Output: loss (0-d).
# Crucible draws predictions from uniform(0, 1) (KernelBench scales them by a random scalar).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, predictions, targets):
        return torch.mean((predictions - targets) ** 2)


batch_size = 32768
input_shape = (32768,)
dim = 1


def get_inputs():
    return [torch.rand(batch_size, *input_shape), torch.rand(batch_size, *input_shape)]


def get_init_inputs():
    return []
