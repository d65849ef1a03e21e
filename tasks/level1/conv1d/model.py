# KernelBench level1/67_conv_standard_1D.py in Crucible's terms.
# Params: N = batch_size, CI = in_channels, CO = out_channels, L = length, K = kernel_size
# (stride 1, padding 0, dilation 1, groups 1, no bias). Inputs: x, w = conv1d.weight
# (passed explicitly). Output: y. Compare with TF32 off (torch.backends.cudnn.allow_tf32 = False).
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, x, w):
        return F.conv1d(x, w)


batch_size = 32
in_channels = 64
out_channels = 128
kernel_size = 3
length = 131072


def get_inputs():
    return [torch.rand(batch_size, in_channels, length), torch.rand(out_channels, in_channels, kernel_size) * 0.5 - 0.25]


def get_init_inputs():
    return []
