import { style } from "@vanilla-extract/css";
import { radius, space, vars } from "~/styles/theme.css";

// /suggest-platform's own styles, apart from the community module's: that page loads only these.
export const similarBox = style({
  marginTop: space.sm,
  padding: space.md,
  borderRadius: radius.md,
  background: vars.color.warningBg,
  border: `1px solid ${vars.color.border}`,
});
export const similarList = style({ margin: `${space.xs} 0 0`, paddingLeft: space.lg });
export const kindTag = style({ color: vars.color.textMuted, fontSize: "0.9rem" });

export const suggestionList = style({
  listStyle: "none",
  margin: 0,
  padding: 0,
  display: "flex",
  flexDirection: "column",
  gap: space.md,
});
export const suggestionItem = style({
  display: "flex",
  gap: space.md,
  alignItems: "center",
  justifyContent: "space-between",
  flexWrap: "wrap",
});
export const suggestionBody = style({ display: "flex", flexDirection: "column", gap: space.xs, flex: "1 1 16rem", minWidth: 0 });
export const suggestionName = style({ margin: 0, fontSize: "1.15rem" });
export const popularBadge = style({ background: vars.color.warningBg });
export const newBadge = style({ background: vars.color.successBg, color: vars.color.success });
export const voteBox = style({ display: "flex", alignItems: "center", gap: space.md });
export const voteCount = style({ margin: 0, fontSize: "1.25rem", fontWeight: 700, whiteSpace: "nowrap" });
