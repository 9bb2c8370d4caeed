"""The network: a small fully convolutional CenterNet-style reader of corner indices."""

import torch
from torch import nn

from games.vision.labels import GEOMETRY, RANKS, SUITS


def _conv(cin, cout, stride=1):
    return nn.Sequential(
        nn.Conv2d(cin, cout, 3, stride, 1, bias=False), nn.BatchNorm2d(cout), nn.ReLU(inplace=True)
    )


class _Separable(nn.Module):
    """Depthwise 3x3 then pointwise, with a residual when the shape allows it."""

    def __init__(self, cin, cout, stride=1, dilation=1):
        super().__init__()
        self.residual = stride == 1 and cin == cout
        self.body = nn.Sequential(
            nn.Conv2d(cin, cin, 3, stride, dilation, dilation, groups=cin, bias=False),
            nn.BatchNorm2d(cin),
            nn.ReLU(inplace=True),
            nn.Conv2d(cin, cout, 1, bias=False),
            nn.BatchNorm2d(cout),
        )
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        y = self.body(x)
        return self.act(x + y if self.residual else y)


class _Dense(nn.Module):
    """A full 3x3 convolution with a residual: used where the map is small (stride 16)."""

    def __init__(self, channels, dilation=1):
        super().__init__()
        self.body = nn.Sequential(
            nn.Conv2d(channels, channels, 3, 1, dilation, dilation, bias=False),
            nn.BatchNorm2d(channels),
        )
        self.act = nn.ReLU(inplace=True)

    def forward(self, x):
        return self.act(x + self.body(x))


class CornerNet(nn.Module):
    """Stride-4 maps: index-centre heat, rank and suit probabilities, and its geometry."""

    def __init__(self, width=32):
        super().__init__()
        w = width
        # A 4x4 patch stem: far cheaper to train on the CPU than two strided 3x3 convolutions.
        self.stem = nn.Sequential(
            nn.Conv2d(3, w, 4, 4, bias=False), nn.BatchNorm2d(w), nn.ReLU(inplace=True), _conv(w, w)
        )
        self.s4 = nn.Sequential(_Separable(w, w), _Separable(w, w))
        self.s8 = nn.Sequential(_Separable(w, 2 * w, 2), _Separable(2 * w, 2 * w))
        self.s8b = _Separable(2 * w, 2 * w)
        self.s16 = nn.Sequential(
            _Separable(2 * w, 3 * w, 2),
            _Dense(3 * w),
            _Dense(3 * w, dilation=2),
            _Dense(3 * w, dilation=4),
        )
        self.up16 = nn.Conv2d(3 * w, 2 * w, 1)
        self.up8 = nn.Conv2d(2 * w, w, 1)
        self.fuse = nn.Sequential(_Separable(w, w), _Separable(w, w))
        self.heat = nn.Conv2d(w, 1, 1)
        self.rank = nn.Conv2d(w, len(RANKS), 1)
        self.suit = nn.Conv2d(w, len(SUITS), 1)
        self.geometry = nn.Conv2d(w, len(GEOMETRY), 1)
        nn.init.constant_(self.heat.bias, -4.0)

    def features(self, x):
        x4 = self.s4(self.stem(x))
        x8 = self.s8(x4)
        x16 = self.s16(x8)
        up = nn.functional.interpolate(self.up16(x16), size=x8.shape[2:], mode="nearest")
        x8 = self.s8b(x8 + up)
        up = nn.functional.interpolate(self.up8(x8), size=x4.shape[2:], mode="nearest")
        return self.fuse(x4 + up)

    def forward(self, x):
        """Raw logits, for training."""
        f = self.features(x)
        return self.heat(f), self.rank(f), self.suit(f), self.geometry(f)


class Exported(nn.Module):
    """What the ONNX file holds: uint8 RGB in, one map of probabilities and geometry out."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, image):
        x = image.float() / 255.0 - 0.5
        heat, rank, suit, geometry = self.net(x)
        return torch.cat([torch.sigmoid(heat), rank.softmax(1), suit.softmax(1), geometry], dim=1)


class IndexNet(nn.Module):
    """Names an upright corner index: rank (or none) and suit, from a CROP x CROP square."""

    def __init__(self, width=16):
        super().__init__()
        w = width
        self.body = nn.Sequential(
            _conv(3, w),
            _conv(w, w),
            nn.MaxPool2d(2),
            _conv(w, 2 * w),
            _conv(2 * w, 2 * w),
            nn.MaxPool2d(2),
            _conv(2 * w, 4 * w),
            _conv(4 * w, 4 * w),
            nn.MaxPool2d(2),
            _conv(4 * w, 4 * w),
            nn.AdaptiveAvgPool2d(1),
            nn.Flatten(),
            nn.Dropout(0.1),
        )
        self.rank = nn.Linear(4 * w, len(RANKS) + 1)
        self.suit = nn.Linear(4 * w, len(SUITS))

    def forward(self, x):
        f = self.body(x)
        return self.rank(f), self.suit(f)


class ExportedIndex(nn.Module):
    """uint8 crops (N, 3, CROP, CROP) in; (N, ranks + none + suits) probabilities out."""

    def __init__(self, net):
        super().__init__()
        self.net = net

    def forward(self, crops):
        rank, suit = self.net(crops.float() / 255.0 - 0.5)
        return torch.cat([rank.softmax(1), suit.softmax(1)], dim=1)
