// widget settings, widget.json, widget.png.
import type { RouteDefinition } from "../http";

export const widgetRoutes: RouteDefinition[] = [];
