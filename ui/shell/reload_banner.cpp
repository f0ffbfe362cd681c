#include "shell/reload_banner.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

#include "widgets/palette.h"

ReloadBanner::ReloadBanner(QWidget* parent) : QFrame(parent) {
    setObjectName(QStringLiteral("reloadBanner"));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    QPalette p = palette();
    p.setColor(QPalette::Window, uiColor(UiColor::WarningBanner));
    setPalette(p);
    label_ = new QLabel;
    label_->setWordWrap(true);
    label_->setTextInteractionFlags(Qt::TextSelectableByMouse);
    // A long path must not widen the window: the label wraps within the width it is given.
    label_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    reload_ = new QPushButton(tr("Reload"));
    auto* dismiss = new QPushButton(tr("Keep Showing"));
    dismiss->setToolTip(
        tr("Keep what is shown; exporting stays refused until the trace is "
           "reloaded"));
    auto* layout = new QHBoxLayout(this);
    layout->setContentsMargins(8, 4, 8, 4);
    layout->addWidget(label_, 1);
    layout->addWidget(reload_);
    layout->addWidget(dismiss);
    connect(reload_, &QPushButton::clicked, this, [this] {
        hide();
        emit reloadRequested();
    });
    connect(dismiss, &QPushButton::clicked, this, &QWidget::hide);
    hide();
}

void ReloadBanner::showChange(const QString& message) {
    label_->setText(
        tr("%1. What is shown was read before; reload to see the file as it is now.").arg(message));
    label_->setToolTip(message);
    show();
}

QString ReloadBanner::text() const {
    return label_->text();
}
