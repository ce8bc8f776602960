#pragma once
// TimelineNameCache: the names the timeline shows for a trace's strings, made once per string
// ("cudaMalloc_v3020" shows as "cudaMalloc") and laid out once in the bar font, so painting a
// frame draws prepared text instead of shaping it again.
#include <QFont>
#include <QFontMetrics>
#include <QStaticText>
#include <QString>
#include <vector>

#include "core/model/trace.h"

namespace gpuscope::ui {

class TimelineNameCache {
 public:
  struct NameText {
    int width = -1;  // -1: not laid out yet
    QStaticText text;
  };

  // Forgets every name; TRACE (may be null) is where names come from from now on.
  void reset(const Trace* trace);
  const QString& displayName(StringId id) const;
  // A key for the name's colour made from its display text, so equal names match across traces.
  uint32_t colorKey(StringId id) const;
  // The display name laid out in FONT (whose metrics are FM), and its width.
  const NameText& nameText(StringId id, const QFontMetrics& fm, const QFont& font) const;

 private:
  const Trace* trace_ = nullptr;
  mutable std::vector<QString> names_;  // by StringId, filled on first use
  mutable std::vector<bool> filled_;
  mutable std::vector<NameText> texts_;
};

}  // namespace gpuscope::ui
