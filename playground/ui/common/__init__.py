"""What every tab shares: i18n, widgets, share links, the status panel, the lab-model menus, common strings."""
