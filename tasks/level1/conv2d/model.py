# KernelBench level1/63_conv_standard_2D__square_input__square_kernel.py in Crucible's terms.
# Params: N = batch_size, CI = in_channels, CO = out_channels, H = height, W = width,
# K = kernel_size (stride 1, padding 0, dilation 1, groups 1, no bias).
# Inputs: x, w = conv2d.weight (passed explicitly). Output: y.
# Compare with TF32 off (torch.backends.cudnn.allow_tf32 = False).
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x, w):
        return F.conv2d(x, w)


batch_size = 16
in_channels = 16
out_channels = 128
kernel_size = 3
width = 1024
height = 1024


def get_inputs():
    return [torch.rand(batch_size, in_channels, height, width),
            torch.rand(out_channels, in_channels, kernel_size, kernel_size) * 0.4 - 0.2]


def get_init_inputs():
    return []
