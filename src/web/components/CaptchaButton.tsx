/**
 * The captcha image as a button: a click, Enter or Space fetches a new one. The button is named
 * 换一张验证码 for screen readers and keyboard users; the image inside keeps its alt text 验证码.
 */
import Box from '@mui/material/Box';
import ButtonBase from '@mui/material/ButtonBase';

export const CAPTCHA_REFRESH_LABEL = '换一张验证码';

/** `height` of the image (40 px by default) and `mt`, the space above it (theme spacing). */
export function CaptchaButton({
  img,
  onRefresh,
  height = 40,
  mt = 0,
}: {
  img: string | undefined;
  onRefresh: () => void;
  height?: number;
  mt?: number;
}) {
  return (
    <ButtonBase
      onClick={onRefresh}
      aria-label={CAPTCHA_REFRESH_LABEL}
      title="看不清？点击刷新"
      focusRipple
      sx={{
        width: 120,
        height,
        mt,
        flexShrink: 0,
        border: '1px solid #dcdfe6',
        borderRadius: 1,
        overflow: 'hidden',
        '&.Mui-focusVisible': { outline: '2px solid', outlineColor: 'primary.main', outlineOffset: 2 },
      }}
    >
      <Box component="img" src={img || undefined} alt="验证码" sx={{ width: '100%', height: '100%', display: 'block' }} />
    </ButtonBase>
  );
}
