"""prionic golden model (written from docs/timing.md and docs/frame-path.md only)."""

from model.classifier import RULE_NONE, Classification, Classifier, Rule
from model.moderation import Moderation, ModerationConfig, Prescaler
from model.nic import Admission, CompletionError, FrameOutcome, ModelConfig, PrionicModel, Registers
from model.parser import Parser, ParseResult

__all__ = [
    "Admission",
    "Classification",
    "Classifier",
    "CompletionError",
    "FrameOutcome",
    "ModelConfig",
    "Moderation",
    "ModerationConfig",
    "ParseResult",
    "Parser",
    "Prescaler",
    "PrionicModel",
    "RULE_NONE",
    "Registers",
    "Rule",
]
