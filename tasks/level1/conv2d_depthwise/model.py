# KernelBench level1/82_conv_depthwise_2D_square_input_square_kernel.py in Crucible's terms.
# Params: N = batch_size, C = in_channels, H = height, W = width, K = kernel_size (stride 1,
# padding 0, no bias). Inputs: x, w = conv2d.weight viewed as [C, K, K] (passed explicitly).
# Output: y.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x, w):
        C, K = w.shape[0], w.shape[-1]
        return F.conv2d(x, w.reshape(C, 1, K, K), groups=C)


batch_size = 16
in_channels = 64
kernel_size = 3
width = 512
height = 512


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width), torch.rand(in_channels, kernel_size, kernel_size) - 0.5]


def get_init_inputs():
    return []
