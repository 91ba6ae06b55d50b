"""Modal dialogs over the current screen: a yes/no question, a choice by key, a date."""
