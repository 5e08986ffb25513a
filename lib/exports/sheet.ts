/** Where a writer sends the bytes of the file as they are made. */
export type Sink = (chunk: Uint8Array) => void;

/** Writes an export file page by page, sending its bytes to a sink. */
export interface SheetWriter<R> {
  /** Writes a page of rows; resolves when the writer can take the next page. */
  write(rows: R[]): Promise<void>;
  /** Finishes the file; resolves when its last byte went to the sink. */
  end(): Promise<void>;
}
