# KernelBench level1/42_Max_Pooling_2D.py in Crucible's terms.
# Params: N = batch_size, C = channels, H = height, W = width, K = kernel_size, S = stride,
# P = padding (dilation = 1). Inputs: x. Output: y.
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self, kernel_size: int = 4, stride: int = 1, padding: int = 1, dilation: int = 1):
        super(Model, self).__init__()
        self.maxpool = nn.MaxPool2d(kernel_size=kernel_size, stride=stride, padding=padding, dilation=dilation)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.maxpool(x)


batch_size = 32
channels = 64
height = 512
width = 512
kernel_size = 4
stride = 1
padding = 1
dilation = 1


def get_inputs():
    return [torch.randn(batch_size, channels, height, width)]


def get_init_inputs():
    return [kernel_size, stride, padding, dilation]


def crucible_forward(inputs, params):
    """The task's shapes carry K, S and P: build the pool from them (scripts/torch-crosscheck.py)."""
    pool = nn.MaxPool2d(kernel_size=params["K"], stride=params["S"], padding=params["P"])
    return {"y": pool(inputs["x"])}
