import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """One VGG-style stage (closest: level3/11_VGG16.py).
    Param mapping: w1, b1 -> conv1.weight, conv1.bias; w2, b2 -> conv2.weight, conv2.bias."""

    def __init__(self):
        super().__init__()

    def forward(self, x, w1, b1, w2, b2):
        t = torch.relu(F.conv2d(x, w1, b1, padding=1))
        u = torch.relu(F.conv2d(t, w2, b2, padding=1))
        return F.max_pool2d(u, 2)


def get_inputs():
    Nb, Ci, Co, H, W = 32, 64, 128, 112, 112
    return [torch.randn(Nb, Ci, H, W), torch.randn(Co, Ci, 3, 3) / (Ci * 9 / 128 + 8), torch.randn(Co) * 0.5,
            torch.randn(Co, Co, 3, 3) * 2 / (Co * 9 / 128 + 8), torch.randn(Co) * 0.5]


def get_init_inputs():
    return []
