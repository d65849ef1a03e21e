# KernelBench level1/35_GroupNorm_.py in Crucible's terms.
# Params: N = batch_size, G = num_groups, CPG = features / num_groups, H = dim1, W = dim2.
# Inputs: x [N, G*CPG, H, W], gamma = gn.weight, beta = gn.bias (KernelBench leaves them at 1
# and 0; Crucible draws them at random). Output: y.
import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    def __init__(self, num_groups: int = 8, eps: float = 1e-5):
        super(Model, self).__init__()
        self.num_groups = num_groups
        self.eps = eps

    def forward(self, x, gamma, beta):
        return F.group_norm(x, self.num_groups, gamma, beta, self.eps)


batch_size = 112
features = 64
num_groups = 8
dim1 = 512
dim2 = 512


def get_inputs():
    return [torch.rand(batch_size, features, dim1, dim2), torch.rand(features) + 0.5, torch.rand(features) * 2 - 1]


def get_init_inputs():
    return [num_groups]


def crucible_forward(inputs, params):
    """The task's shapes carry G (groups): use it (scripts/torch-crosscheck.py)."""
    return {"y": F.group_norm(inputs["x"], params["G"], inputs["gamma"], inputs["beta"], 1e-5)}
