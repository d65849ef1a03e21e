# KernelBench level1/20_LeakyReLU.py in KernelBench's form, at this task's benchmark shape.
# Param mapping: the task's N = batch_size * dim; the task's x is this x flattened
# (the operation is elementwise, so any shape with N elements gives the same values).
import torch
import torch.nn as nn


class Model(nn.Module):
    """nn.LeakyReLU(negative_slope=0.01)"""

    def __init__(self):
        super().__init__()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return torch.nn.functional.leaky_relu(x, negative_slope=0.01)


batch_size = 4096
dim = 393216


def get_inputs():
    return [torch.randn(batch_size, dim)]


def get_init_inputs():
    return []
