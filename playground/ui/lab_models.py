"""A session's MLM lab model in the other tabs' model menus (fill-mask, attention), for that session only.

The lab keeps each session's fine-tuned model under a random token held in a `gr.State` (server-side, never
sent to the browser). `LabMenus` owns that State, so the tabs built before the lab can take it as an input:
their menus gain the choice "Your lab model (<base>, <n> steps)" after a training, and their events hand the
backend `session_models(token)`: {LAB_MODEL_KEY: model}, which the backend uses past the allow-list and never
caches. Nothing else can name the model: the API has no session, and a link's value must be one of a menu's
build-time choices (`ui.share.decode`), which never include it.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import gradio as gr

from playground.mlm_lab.runner import drop_session, session_lab_model, session_models
from playground.models import SessionModels
from playground.registry import LAB_MODEL_KEY
from playground.ui.common import label_in, model_choices, refuse
from playground.ui.i18n import t


def menu_choices(kinds: Iterable[str], lang: str, token: str | None) -> list[tuple[str, str]]:
    """The available models of these kinds, and this session's lab model last when it has one of these kinds."""
    kinds = tuple(kinds)
    choices = model_choices(kinds, lang)
    found = session_lab_model(token)
    if found is not None and found.model.spec.kind in kinds:
        label = t("mlm_lab.session_choice", lang, base=label_in(found.base_label, lang), steps=found.steps)
        choices.append((label, LAB_MODEL_KEY))
    return choices


def session_for(token: str | None, keys: Iterable[Any], lang: str) -> SessionModels:
    """The session models a run may use: {} unless it asks for the lab model, which must still be in memory.

    `token` None means no session (an API call): the key is then left to the allow-list, which refuses it as
    an unknown model.
    """
    if token is None or LAB_MODEL_KEY not in [k for k in keys if isinstance(k, str)]:
        return {}
    found = session_models(token)
    if not found:
        raise refuse(t("mlm_lab.session_gone", lang))
    return found


def _keep(value: Any, keys: set[str], fallback: Any) -> Any:
    """A menu's value after its choices changed: what is still offered (a gone lab model is dropped)."""
    if isinstance(value, list):
        return [v for v in value if v in keys]
    return value if value in keys else fallback


@dataclass
class LabMenus:
    """The session's lab token and the model menus that offer its model (see the module docstring)."""

    token: Any  # gr.State: the lab's token for this session; its delete_callback drops the model with the session
    menus: list[tuple[Any, tuple[str, ...], Any]] = field(default_factory=list)  # (component, kinds, fallback value)
    events: list[Any] = field(default_factory=list)  # events after which this session's model may have changed

    @classmethod
    def create(cls) -> LabMenus:
        return cls(gr.State(None, delete_callback=drop_session))

    def menu(self, component: Any, kinds: Iterable[str], fallback: Any = None) -> Any:
        """Register a model menu: its choices follow the language and this session's model (not the Localizer)."""
        self.menus.append((component, tuple(kinds), fallback))
        return component

    def changed_by(self, event: Any) -> None:
        """After `event` (a training), the menus are redrawn with the session's model as it is now."""
        self.events.append(event)

    def refresh(self, token: str | None, lang: str, *values: Any) -> list[Any]:
        updates = []
        for (_, kinds, fallback), value in zip(self.menus, values):
            choices = menu_choices(kinds, lang, token)
            updates.append(gr.update(choices=choices, value=_keep(value, {k for _, k in choices}, fallback)))
        return updates

    def wire(self, lang: Any) -> None:
        """Connect the menus (call once every tab is built): redrawn after a training and on a language switch."""
        if not self.menus:
            return
        components = [c for c, _, _ in self.menus]
        inputs = [self.token, lang, *components]
        for event in self.events:
            event.then(self.refresh, inputs, components, api_visibility="private", queue=False)
        lang.change(self.refresh, inputs, components, api_visibility="private", queue=False)


def model_menu(ui: Any, component: Any, kinds: Iterable[str], fallback: Any = None, **props: Any) -> Any:
    """Register a model menu of a tab: with the session's lab model when the app has a lab (`ui.lab`), else
    relabelled by the Localizer alone (a tab built on its own, in tests)."""
    kinds = tuple(kinds)
    if getattr(ui, "lab", None) is None:
        return ui.loc.add(component, choices=lambda lang: model_choices(kinds, lang), **props)
    ui.loc.add(component, **props)
    return ui.lab.menu(component, kinds, fallback)


def token_of(ui: Any) -> list[Any]:
    """The lab token as an event input ([] when the app has no lab): append it to a tab's inputs."""
    lab = getattr(ui, "lab", None)
    return [] if lab is None else [lab.token]
