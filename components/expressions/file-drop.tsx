"use client";

// A drop zone that is also a file picker: drag files onto it, or click (or press Enter) to choose them.
import { useRef, useState, type DragEvent } from "react";
import { cn } from "@/components/ui/cn";

export function FileDrop({
  accept,
  multiple = false,
  disabled = false,
  label,
  hint,
  onFiles,
}: {
  accept: string;
  multiple?: boolean;
  disabled?: boolean;
  label: string;
  hint?: string;
  onFiles: (files: File[]) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const take = (list: FileList | null) => {
    const files = [...(list ?? [])];
    if (files.length > 0 && !disabled) onFiles(multiple ? files : files.slice(0, 1));
  };
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setOver(false);
    take(event.dataTransfer.files);
  };
  return (
    <div
      onDragOver={(event) => {
        event.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
      data-testid="file-drop"
      className={cn(
        "flex flex-col items-center justify-center gap-1 rounded-lg border-2 border-dashed px-4 py-6 text-center",
        over ? "border-blurple bg-blurple/10" : "border-line",
        disabled && "opacity-50",
      )}
    >
      <label
        className={cn(
          "cursor-pointer font-medium text-blurple-ink underline-offset-2 hover:underline",
          disabled && "cursor-not-allowed",
        )}
      >
        {label}
        <input
          ref={input}
          type="file"
          accept={accept}
          multiple={multiple}
          disabled={disabled}
          className="sr-only"
          onChange={(event) => {
            take(event.currentTarget.files);
            event.currentTarget.value = "";
          }}
        />
      </label>
      {hint && <p className="text-xs text-ink-muted">{hint}</p>}
    </div>
  );
}

/** A file's bytes as a data URI (what the API takes for emoji and sounds). */
export function readAsDataUri(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error("The file could not be read."));
    reader.readAsDataURL(file);
  });
}
