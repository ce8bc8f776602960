#include "ui/main_window/startup_view.h"

#include "core/model/time_text.h"
#include "core/query/event_find.h"
#include "ui/session/trace_session.h"

namespace gpuscope::ui {

std::optional<QString> parseStartupView(const QString& view, const QString& select, StartupView& out) {
  if (!view.isEmpty()) {
    const QStringList parts = view.split(QLatin1Char(':'));
    auto from = parts.size() == 2 ? parseDuration(parts[0].toStdString()) : std::nullopt;
    auto to = parts.size() == 2 ? parseDuration(parts[1].toStdString()) : std::nullopt;
    if (!from || !to || *to <= *from)
      return QStringLiteral("--view wants FROM:TO from the trace start with FROM < TO, like 797.8ms:802ms, not '%1'.")
          .arg(view);
    out.from = from;
    out.to = to;
  }
  if (!select.isEmpty()) {
    const int hash = select.lastIndexOf(QLatin1Char('#'));
    bool numbered = false;
    const int occurrence = hash > 0 ? select.mid(hash + 1).toInt(&numbered) : 1;
    if (hash > 0 && (!numbered || occurrence < 1))
      return QStringLiteral("--select wants NAME or NAME#N with N >= 1, not '%1'.").arg(select);
    out.selectName = hash > 0 ? select.left(hash) : select;
    out.selectOccurrence = occurrence;
  }
  return std::nullopt;
}

std::optional<QString> parseStartupRange(const QString& range, StartupView& out) {
  if (range.isEmpty()) return std::nullopt;
  const QStringList parts = range.split(QLatin1Char(':'));
  auto from = parts.size() == 2 ? parseDuration(parts[0].toStdString()) : std::nullopt;
  auto to = parts.size() == 2 ? parseDuration(parts[1].toStdString()) : std::nullopt;
  if (!from || !to || *to <= *from)
    return QStringLiteral("--range wants FROM:TO from the trace start with FROM < TO, like 10ms:20ms, not '%1'.")
        .arg(range);
  out.rangeFrom = from;
  out.rangeTo = to;
  return std::nullopt;
}

std::optional<QString> applyStartupView(const StartupView& view, TraceSession& session) {
  if (!session.hasTrace()) return std::nullopt;
  const Trace& trace = *session.trace();
  if (!view.selectName.isEmpty()) {
    auto matches = findEvents(trace, NamePattern(view.selectName.toStdString(), FindMode::Substring, true));
    if (matches.size() < static_cast<size_t>(view.selectOccurrence))
      return QStringLiteral("the trace has %1 events named like '%2', so #%3 cannot be selected.")
          .arg(matches.size())
          .arg(view.selectName)
          .arg(view.selectOccurrence);
    session.focusEvent(matches[static_cast<size_t>(view.selectOccurrence - 1)]);
  }
  if (view.from && view.to) session.setViewRange(trace.startTime() + *view.from, trace.startTime() + *view.to);
  if (view.rangeFrom && view.rangeTo)
    session.setRange(trace.startTime() + *view.rangeFrom, trace.startTime() + *view.rangeTo);
  return std::nullopt;
}

}  // namespace gpuscope::ui
