// The "?" help: keyboard and mouse controls, and what each slice colour means.
#pragma once

class QWidget;

void showShortcutsDialog(QWidget* parent);
