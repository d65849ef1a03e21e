# KernelBench level1/44_Average_Pooling_1D.py in Crucible's terms.
# Params: N = batch_size, C = in_channels, L = input_length, K = kernel_size, S = stride,
# P = padding. Inputs: x. Output: y.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int = 8, stride: int = 1, padding: int = 4):
        super(Model, self).__init__()
        self.avg_pool = nn.AvgPool1d(kernel_size=kernel_size, stride=stride, padding=padding)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.avg_pool(x)


batch_size = 64
in_channels = 128
input_length = 65536
kernel_size = 8
stride = 1
padding = 4


def get_inputs():
    return [torch.rand(batch_size, in_channels, input_length)]


def get_init_inputs():
    return [kernel_size, stride, padding]


def crucible_forward(inputs, params):
    """The task's shapes carry K, S and P: build the pool from them (scripts/torch-crosscheck.py)."""
    pool = nn.AvgPool1d(kernel_size=params["K"], stride=params["S"], padding=params["P"])
    return {"y": pool(inputs["x"])}
