// Joins (above the line) and leaves (below it) per day, drawn with visx on the server: plain SVG in the HTML, no
// script. Two drawings, one for phones and one for wider screens, so the axis labels keep a readable size; the
// numbers are also in a table for screen readers and for anyone who wants them exact.
import { Group } from "@visx/group";
import { Bar, Line } from "@visx/shape";
import { AxisBottom, AxisLeft } from "@visx/axis";
import { scaleBand, scaleLinear } from "@visx/scale";
import type { GrowthDay } from "@/lib/dashboard/overview/growth";
import { TableHead } from "@/components/ui/table-head";

const MARGIN = { top: 12, right: 8, bottom: 28, left: 40 };

function Drawing({
  days,
  width,
  height,
  tickEvery,
  locale,
  className,
}: {
  days: GrowthDay[];
  width: number;
  height: number;
  tickEvery: number;
  locale: string;
  className: string;
}) {
  const innerWidth = width - MARGIN.left - MARGIN.right;
  const innerHeight = height - MARGIN.top - MARGIN.bottom;
  const maxJoins = Math.max(1, ...days.map((d) => d.joins ?? 0));
  const maxLeaves = Math.max(days.some((d) => d.leaves > 0) ? 1 : 0, ...days.map((d) => d.leaves));
  const x = scaleBand<string>({ domain: days.map((d) => d.day), range: [0, innerWidth], padding: 0.25 });
  const y = scaleLinear<number>({ domain: [-maxLeaves, maxJoins], range: [innerHeight, 0], nice: true });
  const dayLabel = new Intl.DateTimeFormat(locale, { day: "numeric", month: "short", timeZone: "UTC" });
  const count = new Intl.NumberFormat(locale, { maximumFractionDigits: 0 });
  return (
    <svg viewBox={`0 0 ${width} ${height}`} className={className} aria-hidden focusable="false">
      <Group left={MARGIN.left} top={MARGIN.top}>
        {days.map((d) => {
          const left = x(d.day) ?? 0;
          const joins = d.joins ?? 0;
          return (
            <g key={d.day}>
              {joins > 0 && (
                <Bar
                  x={left}
                  y={y(joins)}
                  width={x.bandwidth()}
                  height={y(0) - y(joins)}
                  className="fill-success-ink"
                  rx={1}
                />
              )}
              {d.leaves > 0 && (
                <Bar
                  x={left}
                  y={y(0)}
                  width={x.bandwidth()}
                  height={y(-d.leaves) - y(0)}
                  className="fill-danger-ink"
                  rx={1}
                />
              )}
            </g>
          );
        })}
        <Line from={{ x: 0, y: y(0) }} to={{ x: innerWidth, y: y(0) }} className="stroke-ink-muted" strokeWidth={1} />
        <AxisLeft
          scale={y}
          numTicks={4}
          tickFormat={(v) => count.format(Math.abs(Number(v)))}
          stroke="currentColor"
          tickStroke="currentColor"
          axisClassName="text-ink-muted"
          tickLabelProps={{ fill: "currentColor", fontSize: 11, textAnchor: "end", dx: -4, dy: 3 }}
        />
        <AxisBottom
          top={innerHeight}
          scale={x}
          tickValues={days.filter((_, i) => (days.length - 1 - i) % tickEvery === 0).map((d) => d.day)}
          tickFormat={(day) => dayLabel.format(Date.parse(day))}
          stroke="currentColor"
          tickStroke="currentColor"
          axisClassName="text-ink-muted"
          // The last label (today) ends at its bar instead of centring on it: centred, it ran past the drawing's right
          // edge and was clipped (the phone drawing's especially).
          tickLabelProps={(_value, index, values) => ({
            fill: "currentColor",
            fontSize: 11,
            textAnchor: index === values.length - 1 ? "end" : "middle",
            dx: index === values.length - 1 ? x.bandwidth() / 2 : 0,
          })}
        />
      </Group>
    </svg>
  );
}

export function GrowthChart({ days, locale, label }: { days: GrowthDay[]; locale: string; label: string }) {
  const dayLabel = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeZone: "UTC" });
  const count = new Intl.NumberFormat(locale);
  return (
    <figure aria-label={label}>
      <Drawing days={days} width={360} height={200} tickEvery={7} locale={locale} className="h-auto w-full sm:hidden" />
      <Drawing
        days={days}
        width={720}
        height={220}
        tickEvery={5}
        locale={locale}
        className="hidden h-auto w-full sm:block"
      />
      <figcaption className="mt-2 flex flex-wrap gap-4 text-xs text-ink-muted">
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className="size-2.5 rounded-sm bg-success-ink" /> Joined
        </span>
        <span className="inline-flex items-center gap-1.5">
          <span aria-hidden className="size-2.5 rounded-sm bg-danger-ink" /> Removed by moderators
        </span>
      </figcaption>
      <details className="mt-2 text-sm">
        <summary className="cursor-pointer text-ink-muted hover:text-ink">Numbers per day</summary>
        <div className="mt-2 max-h-64 overflow-y-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">{label}</caption>
            <TableHead
              columns={[{ label: "Day" }, { label: "Joined", align: "right" }, { label: "Removed", align: "right" }]}
            />
            <tbody>
              {[...days].reverse().map((d) => (
                <tr key={d.day} className="border-t border-line">
                  <th scope="row" className="py-1 font-normal">
                    {dayLabel.format(Date.parse(d.day))}
                  </th>
                  <td className="py-1 text-right tabular-nums">{d.joins === null ? "—" : count.format(d.joins)}</td>
                  <td className="py-1 text-right tabular-nums">{count.format(d.leaves)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </details>
    </figure>
  );
}
