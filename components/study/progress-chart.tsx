"use client";

import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";

export interface DailyGrades {
  day: string;
  again: number;
  hard: number;
  good: number;
  easy: number;
}

/** Grades given per day over the last two weeks, stacked by grade. */
export function ProgressChart({ daily }: { daily: DailyGrades[] }) {
  const data = daily.map((d) => ({ ...d, label: d.day.slice(5) }));
  return (
    <div data-testid="progress-chart" className="h-48 w-full" role="img" aria-label={`Cards reviewed per day: ${daily.reduce((n, d) => n + d.again + d.hard + d.good + d.easy, 0)} in the last ${daily.length} days`}>
      <ResponsiveContainer width="100%" height="100%">
        <BarChart data={data} margin={{ top: 8, right: 8, bottom: 0, left: -24 }}>
          <CartesianGrid strokeDasharray="3 3" vertical={false} stroke="#e7e5e4" />
          <XAxis dataKey="label" tick={{ fontSize: 11 }} interval="preserveStartEnd" />
          <YAxis allowDecimals={false} tick={{ fontSize: 11 }} />
          <Tooltip />
          <Legend wrapperStyle={{ fontSize: 12 }} />
          <Bar dataKey="again" stackId="g" fill="#dc2626" name="Again" />
          <Bar dataKey="hard" stackId="g" fill="#d97706" name="Hard" />
          <Bar dataKey="good" stackId="g" fill="#059669" name="Good" />
          <Bar dataKey="easy" stackId="g" fill="#2563eb" name="Easy" />
        </BarChart>
      </ResponsiveContainer>
    </div>
  );
}
