# KernelBench level1/98_KLDivLoss.py in Crucible's terms.
# Params: B = batch_size, D = input_shape[0]. Inputs: predictions, targets (positive, not
# normalised: uniform(0.01, 1)); the model normalises each row by its sum where KernelBench's
# get_inputs applies softmax. Output: loss (0-d).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, predictions, targets):
        p = predictions / predictions.sum(dim=-1, keepdim=True)
        q = targets / targets.sum(dim=-1, keepdim=True)
        return torch.nn.functional.kl_div(torch.log(p), q, reduction='batchmean')


batch_size = 8192 * 2
input_shape = (8192 * 2,)
dim = 1


def get_inputs():
    return [torch.rand(batch_size, *input_shape) * 0.99 + 0.01, torch.rand(batch_size, *input_shape) * 0.99 + 0.01]


def get_init_inputs():
    return []
