import torch
import torch.nn as nn
import torch.nn.functional as F
class Model(nn.Module):
    """level3/1_MLP.py with two hidden layers and the weights as forward inputs.
    Param mapping: Wi, bi -> the i-th nn.Linear's weight and bias."""

    def __init__(self):
        super().__init__()

    def forward(self, x, W1, b1, W2, b2, W3, b3):
        h = torch.relu(F.linear(x, W1, b1))
        h = torch.relu(F.linear(h, W2, b2))
        return F.linear(h, W3, b3)


def get_inputs():
    B, I, H1, H2, O = 128, 16384, 16384, 16384, 8192
    return [torch.randn(B, I), torch.randn(H1, I) / (I / 128 + 8), torch.randn(H1) * 0.5,
            torch.randn(H2, H1) * 2 / (H1 / 128 + 8), torch.randn(H2) * 0.5,
            torch.randn(O, H2) * 2 / (H2 / 128 + 8), torch.randn(O) * 0.5]


def get_init_inputs():
    return []
