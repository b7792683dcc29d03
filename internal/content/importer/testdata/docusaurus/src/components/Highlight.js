export default function Highlight({children, color}) {
  return <span style={{backgroundColor: color}}>{children}</span>;
}
