#include "ui/timeline/timeline_name_cache.h"

#include <QRegularExpression>
#include <QTransform>

#include "ui/timeline/timeline_palette.h"

namespace gpuscope::ui {

void TimelineNameCache::reset(const Trace* trace) {
  trace_ = trace;
  names_.clear();
  filled_.clear();
  texts_.clear();
  if (!trace) return;
  names_.resize(trace->stringCount());
  texts_.resize(trace->stringCount());
  filled_.assign(trace->stringCount(), false);
}

const QString& TimelineNameCache::displayName(StringId id) const {
  static const QString kNone;
  if (id >= names_.size()) return kNone;
  if (!filled_[id]) {
    QString name = QString::fromStdString(trace_->string(id));
    // CUDA entry points carry their version ("cudaMalloc_v3020"); show the name people call.
    static const QRegularExpression kVersionSuffix(QStringLiteral("^(cu\\w+?)_v\\d+$"));
    if (name.startsWith(QLatin1String("cu"))) {
      auto match = kVersionSuffix.match(name);
      if (match.hasMatch()) name = match.captured(1);
    }
    names_[id] = std::move(name);
    filled_[id] = true;
  }
  return names_[id];
}

const TimelineNameCache::NameText& TimelineNameCache::nameText(StringId id, const QFontMetrics& fm,
                                                               const QFont& font) const {
  static const NameText kNone;
  if (id >= texts_.size()) return kNone;
  NameText& entry = texts_[id];
  if (entry.width < 0) {
    const QString& name = displayName(id);
    entry.width = fm.horizontalAdvance(name);
    entry.text.setText(name);
    entry.text.setTextFormat(Qt::PlainText);
    entry.text.setPerformanceHint(QStaticText::AggressiveCaching);
    entry.text.prepare(QTransform(), font);
  }
  return entry;
}

uint32_t TimelineNameCache::colorKey(StringId id) const { return nameColorKey(displayName(id)); }

}  // namespace gpuscope::ui
