// Keeping the keyboard in place while Move up / Move down buttons reorder a list. A button disabled once its row
// reaches the end of the list cannot hold the focus (measured in Chromium: the focus fell to <body>, so the next Tab
// started again from the top of the page); a browser that re-inserts a moved row instead of moving it drops the focus
// too.
// Buttons carry data-move="<item key>:up" or ":down".

export const moveButtonKey = (itemKey: string, direction: "up" | "down") => `${itemKey}:${direction}`;

/** After a move, focus the same button of the moved item, or its other button once this one is disabled. */
export function refocusMoveButton(itemKey: string, direction: "up" | "down"): void {
  requestAnimationFrame(() => {
    const button = (d: "up" | "down") =>
      document.querySelector<HTMLButtonElement>(`[data-move="${CSS.escape(moveButtonKey(itemKey, d))}"]`);
    const same = button(direction);
    const target = same && !same.disabled ? same : button(direction === "up" ? "down" : "up");
    if (target && !target.disabled) target.focus();
  });
}
