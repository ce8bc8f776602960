#include "ui/main_window/welcome_view.h"

#include <QDir>
#include <QFileInfo>
#include <QFontMetrics>
#include <QKeySequence>
#include <QLabel>
#include <QPainter>
#include <QPushButton>
#include <QResizeEvent>
#include <QUrl>
#include <QVBoxLayout>
#include <algorithm>

#include "ui/main_window/application_icon.h"

namespace gpuscope::ui {
namespace {

constexpr int kCardWidth = 640;
constexpr int kCardMargin = 36;

}  // namespace

WelcomeView::WelcomeView(QWidget* parent)
    : QWidget(parent),
      card_(new QWidget(this)),
      icon_(new QLabel(card_)),
      formats_(new QLabel(card_)),
      heading_(new QLabel(card_)),
      hint_(new QLabel(card_)),
      openButton_(new QPushButton(tr("Open Trace…"), card_)),
      recentCaption_(new QLabel(tr("Recent traces"), card_)),
      recentList_(new QLabel(card_)) {
  setObjectName(QStringLiteral("welcomeView"));
  setAutoFillBackground(true);

  icon_->setPixmap(applicationIcon().pixmap(QSize(96, 96)));
  icon_->setAlignment(Qt::AlignCenter);

  QFont headingFont = heading_->font();
  headingFont.setPointSizeF(headingFont.pointSizeF() * 1.8);
  headingFont.setBold(true);
  heading_->setFont(headingFont);
  heading_->setAlignment(Qt::AlignCenter);

  hint_->setAlignment(Qt::AlignCenter);
  hint_->setWordWrap(true);

  formats_->setText(
      tr("Opens gpuscope recordings, Nsight Systems exports "
         "(<code>nsys export --type sqlite</code>) and PyTorch profiler traces "
         "(<code>.json</code>, <code>.json.gz</code>).<br>"
         "Record a program with <code>gpuscope record -o run.sqlite -- ./program</code>"));
  formats_->setAlignment(Qt::AlignCenter);
  formats_->setWordWrap(true);
  formats_->setForegroundRole(QPalette::PlaceholderText);

  openButton_->setDefault(true);
  openButton_->setMinimumWidth(160);
  openButton_->setToolTip(tr("Choose a trace file (Ctrl+O)"));

  QFont captionFont = recentCaption_->font();
  captionFont.setBold(true);
  recentCaption_->setFont(captionFont);
  recentCaption_->setAlignment(Qt::AlignCenter);
  recentList_->setAlignment(Qt::AlignCenter);
  recentList_->setTextFormat(Qt::RichText);
  recentList_->setTextInteractionFlags(Qt::LinksAccessibleByMouse | Qt::LinksAccessibleByKeyboard);
  recentList_->setObjectName(QStringLiteral("recentList"));

  auto* column = new QVBoxLayout(card_);
  column->setContentsMargins(kCardMargin, 28, kCardMargin, 28);
  column->setSpacing(10);
  column->addWidget(icon_);
  column->addSpacing(4);
  column->addWidget(heading_);
  column->addWidget(hint_);
  column->addSpacing(8);
  column->addWidget(openButton_, 0, Qt::AlignHCenter);
  column->addSpacing(8);
  column->addWidget(formats_);
  column->addSpacing(18);
  column->addWidget(recentCaption_);
  column->addWidget(recentList_);
  card_->setFixedWidth(kCardWidth);

  auto* outer = new QVBoxLayout(this);
  outer->addStretch(2);
  outer->addWidget(card_, 0, Qt::AlignHCenter);
  outer->addStretch(3);

  connect(openButton_, &QPushButton::clicked, this, &WelcomeView::openDialogRequested);
  connect(recentList_, &QLabel::linkActivated, this,
          [this](const QString& link) { emit openRequested(QUrl(link).toLocalFile()); });
  setLoadingFile({});
  setRecentFiles({});
}

namespace {

// A muted text colour as an opaque value that rich text can use (PlaceholderText may be translucent).
QColor mutedTextColor(const QPalette& palette) {
  const QColor text = palette.color(QPalette::WindowText);
  const QColor window = palette.color(QPalette::Window);
  auto mix = [](int a, int b) { return (a * 55 + b * 45) / 100; };
  return QColor(mix(text.red(), window.red()), mix(text.green(), window.green()), mix(text.blue(), window.blue()));
}

}  // namespace

void WelcomeView::setRecentFiles(const QStringList& files) {
  QStringList lines;
  // Each line within the card: a long folder, then a long name, elided in the middle rather than cut at the edge.
  const QFontMetrics metrics(recentList_->font());
  const int width = kCardWidth - 2 * kCardMargin - metrics.horizontalAdvance(QStringLiteral("MM"));
  for (const QString& file : files) {
    const QFileInfo info(file);
    const QString name = metrics.elidedText(info.fileName(), Qt::ElideMiddle, width * 2 / 3);
    const QString folder = metrics.elidedText(QDir::toNativeSeparators(info.absolutePath()), Qt::ElideMiddle,
                                              width - metrics.horizontalAdvance(name));
    lines << QStringLiteral("<a href=\"%1\">%2</a>&nbsp;&nbsp;<span style=\"color:%3\">%4</span>")
                 .arg(QUrl::fromLocalFile(file).toString(QUrl::FullyEncoded).toHtmlEscaped(), name.toHtmlEscaped(),
                      mutedTextColor(palette()).name(), folder.toHtmlEscaped());
  }
  recentList_->setText(lines.join(QStringLiteral("<br>")));
  recentCaption_->setVisible(!files.isEmpty());
  recentList_->setVisible(!files.isEmpty());
  fitCard();
}

void WelcomeView::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fitCard();
}

void WelcomeView::fitCard() {
  const QMargins margins = layout() ? layout()->contentsMargins() : QMargins();
  const int room = height() - margins.top() - margins.bottom();
  for (QWidget* optional : {icon_, formats_}) optional->setVisible(true);
  auto needed = [this] {
    card_->layout()->invalidate();
    return card_->layout()->hasHeightForWidth() ? card_->layout()->totalHeightForWidth(kCardWidth)
                                                : card_->layout()->totalSizeHint().height();
  };
  for (QWidget* optional : {icon_, formats_}) {
    if (needed() <= room) break;
    optional->setVisible(false);
  }
  // At least as tall as its lines at its own width: the page's layout, left to itself, gave the card less (its
  // wrapped lines measured at another width) and cut the last recent file off.
  card_->setMinimumHeight(std::min(needed(), std::max(room, 0)));
}

void WelcomeView::setLoadingFile(const QString& path) {
  if (path.isEmpty()) {
    heading_->setText(tr("No trace open"));
    hint_->setText(tr("Drop a trace file onto this window, or press <b>%1</b> to open one.")
                       .arg(QKeySequence(QKeySequence::Open).toString(QKeySequence::NativeText)));
  } else {
    heading_->setText(tr("Loading %1…").arg(QFileInfo(path).fileName()));
    hint_->setText(tr("Progress is shown in the status bar below, with a button to cancel."));
  }
  openButton_->setEnabled(path.isEmpty());
}

}  // namespace gpuscope::ui

namespace gpuscope::ui {

void WelcomeView::setDropTargetActive(bool active) {
  if (active == dropTargetActive_) return;
  dropTargetActive_ = active;
  update();
}

// The card is drawn as a dashed drop zone; it turns solid, in the highlight colour, under a drag.
void WelcomeView::paintEvent(QPaintEvent* event) {
  QWidget::paintEvent(event);
  QPainter painter(this);
  painter.setRenderHint(QPainter::Antialiasing);
  QPen pen(dropTargetActive_ ? palette().color(QPalette::Highlight) : palette().color(QPalette::Mid));
  pen.setWidthF(dropTargetActive_ ? 2.5 : 1.5);
  pen.setStyle(dropTargetActive_ ? Qt::SolidLine : Qt::DashLine);
  painter.setPen(pen);
  if (dropTargetActive_) {
    QColor fill = palette().color(QPalette::Highlight);
    fill.setAlpha(18);
    painter.setBrush(fill);
  }
  painter.drawRoundedRect(QRectF(card_->geometry()).adjusted(0.5, 0.5, -0.5, -0.5), 14, 14);
}

}  // namespace gpuscope::ui
