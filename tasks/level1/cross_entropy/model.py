# KernelBench level1/95_CrossEntropyLoss.py in Crucible's terms.
# Params: B = batch_size, C = num_classes. Inputs: logits (= predictions), targets (int64).
# Output: loss (0-d). Crucible draws logits from normal(0, 2) (KernelBench: torch.rand).
import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self):
        super(Model, self).__init__()

    def forward(self, predictions, targets):
        return torch.nn.functional.cross_entropy(predictions, targets)


batch_size = 32768
num_classes = 4096
input_shape = (num_classes,)
dim = 1


def get_inputs():
    return [torch.randn(batch_size, *input_shape) * 2, torch.randint(0, num_classes, (batch_size,))]


def get_init_inputs():
    return []
